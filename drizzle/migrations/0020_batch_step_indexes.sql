-- A batch's step costs the same whatever the batch's size (issue 42): its statements read only its
-- own rows through these partial indexes (the items enriching, the next to register, the
-- duplicates of a reference), each at most BATCH_WINDOW long, and the counts are kept by the step.
CREATE INDEX "batch_items_enriching" ON "batch_items" USING btree ("batch_id","property_id") WHERE status = 'pending' and property_id is not null;--> statement-breakpoint
CREATE INDEX "batch_items_unregistered" ON "batch_items" USING btree ("batch_id","line") WHERE status = 'pending' and property_id is null;--> statement-breakpoint
CREATE INDEX "batch_items_duplicates" ON "batch_items" USING btree ("batch_id","cadastral_reference") WHERE status = 'duplicate';