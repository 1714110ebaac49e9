CREATE TABLE "property_repeat_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partner_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"idempotency_key" text,
	"property_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "property_repeat_keys" ADD CONSTRAINT "property_repeat_keys_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "property_repeat_keys" ADD CONSTRAINT "property_repeat_keys_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "property_repeat_keys_key" ON "property_repeat_keys" USING btree ("partner_id","mode","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
CREATE INDEX "property_repeat_keys_created" ON "property_repeat_keys" USING btree ("partner_id","mode","created_at");