-- Provenance for every value (issue 40 §4). A copy's as_of was the download day or the file's
-- modification time: it becomes the publisher's snapshot date, from the dataset's metadata
-- (published_on) or else its newest record's date (latest_record_on), and as_of_basis says which.
ALTER TABLE "register_datasets" ADD COLUMN "as_of_basis" text;--> statement-breakpoint
ALTER TABLE "register_datasets" ADD COLUMN "published_on" date;--> statement-breakpoint
ALTER TABLE "register_datasets" ADD COLUMN "latest_record_on" date;--> statement-breakpoint
-- Copies imported before: their newest record's issue, registration or inspection date (no later
-- than their import), which replaces the download day; Cantabria's workbook states its own date.
UPDATE "register_datasets" d
SET "latest_record_on" = (
  SELECT max(e.on_date) FROM (
    SELECT CASE WHEN r."kind" = 'certificate'
      THEN coalesce(r."data" ->> 'issuedOn', r."data" ->> 'registeredOn')::date
      ELSE r."dated_on" END AS on_date
    FROM "register_records" r
    WHERE r."dataset" = d."id" AND r."generation" = d."generation"
  ) e
  WHERE e.on_date <= coalesce(d."imported_at", now())::date
)
WHERE d."generation" > 0;--> statement-breakpoint
UPDATE "register_datasets"
SET "published_on" = CASE WHEN "id" = 'ctb-dgicc' THEN DATE '2022-04-05' END,
    "as_of" = CASE WHEN "id" = 'ctb-dgicc' THEN DATE '2022-04-05' ELSE "latest_record_on" END,
    "as_of_basis" = CASE
      WHEN "id" = 'ctb-dgicc' THEN 'published'
      WHEN "latest_record_on" IS NOT NULL THEN 'latest_record'
    END
WHERE "generation" > 0;--> statement-breakpoint
-- Events sent before carry Properties without the provenance members: they are added, unknown
-- (null, and no attribution), so a replayed event still reads as the contract's Property.
UPDATE "events"
SET "payload" = jsonb_set(
  jsonb_set(
    jsonb_set(
      "payload" || '{"attribution": []}'::jsonb,
      '{enrichment,cadastre}',
      ("payload" #> '{enrichment,cadastre}') || '{"as_of": null, "retrieved_at": null, "dataset": null, "licence": null}'
    ),
    '{enrichment,energy_certificate}',
    ("payload" #> '{enrichment,energy_certificate}') || '{"as_of": null, "retrieved_at": null, "dataset": null, "licence": null}'
  ),
  '{enrichment,ite}',
  ("payload" #> '{enrichment,ite}') || '{"as_of": null, "retrieved_at": null, "dataset": null, "licence": null}'
)
WHERE "type" = 'property.enriched' AND NOT ("payload" ? 'attribution');
