ALTER TABLE "webhook_endpoints" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "request_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_endpoints_idempotency" ON "webhook_endpoints" USING btree ("partner_id","mode","idempotency_key") WHERE idempotency_key is not null;