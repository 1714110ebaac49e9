ALTER TABLE "invitations" ADD COLUMN "role" text DEFAULT 'developer' NOT NULL;--> statement-breakpoint
-- Operators were "admin", a word an organisation's own admins now use: they become "operator".
UPDATE "users" SET "role" = 'operator' WHERE "role" = 'admin' AND "partner_id" IS NULL;--> statement-breakpoint
-- Members saw and changed keys and webhooks in both modes and managed no one: developers now.
UPDATE "users" SET "role" = 'developer' WHERE "role" = 'member';
