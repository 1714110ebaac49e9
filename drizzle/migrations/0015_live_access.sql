ALTER TABLE "partners" ADD COLUMN "live_access" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "live_request" jsonb;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "live_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "live_decided_at" timestamp with time zone;--> statement-breakpoint
-- Organisations that exist already had live mode from their sign-up: they keep it.
UPDATE "partners" SET "live_access" = 'approved', "live_decided_at" = now();
