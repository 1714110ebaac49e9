ALTER TABLE "partners" ADD COLUMN "system_role" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_system_role_unique" UNIQUE("system_role");--> statement-breakpoint
-- The seed partner an earlier bootstrap made (found by name then) owns no portal users; one that does was signed up by someone.
UPDATE "partners" SET "system_role" = 'seed' WHERE "name" = 'Seed Partner' AND NOT EXISTS (SELECT 1 FROM "users" WHERE "users"."partner_id" = "partners"."id");
