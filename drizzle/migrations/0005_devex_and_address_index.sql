CREATE TABLE "request_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "request_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"request_id" text NOT NULL,
	"partner_id" uuid,
	"mode" text,
	"key_id" uuid,
	"key_visible_start" text,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"error_code" text,
	"duration_ms" integer NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "register_records" ALTER COLUMN "parcel" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "register_records" ADD COLUMN "address_key" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_logs_partner_at" ON "request_logs" USING btree ("partner_id","mode","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_logs_request_id" ON "request_logs" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "request_logs_at" ON "request_logs" USING btree ("at");--> statement-breakpoint
CREATE INDEX "register_records_address" ON "register_records" USING btree ("address_key","kind") WHERE address_key is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_message" ON "webhook_deliveries" USING btree ("message_id");