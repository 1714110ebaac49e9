CREATE TABLE "register_datasets" (
	"id" text PRIMARY KEY NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"last_generation" integer DEFAULT 0 NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"as_of" date,
	"source" text,
	"imported_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "register_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "register_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"dataset" text NOT NULL,
	"generation" integer NOT NULL,
	"kind" text NOT NULL,
	"parcel" text NOT NULL,
	"unit" text,
	"dated_on" date,
	"source_row" integer NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "register_records_parcel" ON "register_records" USING btree ("parcel","kind");--> statement-breakpoint
CREATE INDEX "register_records_dataset" ON "register_records" USING btree ("dataset","generation");