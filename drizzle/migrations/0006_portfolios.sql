CREATE TABLE "batch_items" (
	"batch_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"cadastral_reference" text NOT NULL,
	"external_id" text,
	"status" text NOT NULL,
	"property_id" uuid,
	"error_detail" text,
	CONSTRAINT "batch_items_batch_id_line_pk" PRIMARY KEY("batch_id","line")
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partner_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"name" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"counts" jsonb NOT NULL,
	"idempotency_key" text,
	"request_hash" text,
	"step" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "event_types" text[];--> statement-breakpoint
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_items_status" ON "batch_items" USING btree ("batch_id","status","line");--> statement-breakpoint
CREATE INDEX "batches_partner_mode_created" ON "batches" USING btree ("partner_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "batches_idempotency" ON "batches" USING btree ("partner_id","mode","idempotency_key") WHERE idempotency_key is not null;