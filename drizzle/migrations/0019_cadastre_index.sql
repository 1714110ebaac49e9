CREATE TABLE "cadastre_copies" (
	"source" text NOT NULL,
	"municipality" text NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"last_generation" integer DEFAULT 0 NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"skips" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"as_of" date,
	"as_of_from" text,
	"source_files" text,
	"imported_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "cadastre_copies_source_municipality_pk" PRIMARY KEY("source","municipality")
);
--> statement-breakpoint
CREATE TABLE "cadastre_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cadastre_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"municipality" text NOT NULL,
	"generation" integer NOT NULL,
	"kind" text NOT NULL,
	"parcel" text NOT NULL,
	"unit" text,
	"source_line" integer NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cadastre_records_parcel" ON "cadastre_records" USING btree ("parcel","kind");--> statement-breakpoint
CREATE INDEX "cadastre_records_unit" ON "cadastre_records" USING btree ("unit") WHERE unit is not null;--> statement-breakpoint
CREATE INDEX "cadastre_records_copy" ON "cadastre_records" USING btree ("source","municipality","generation");