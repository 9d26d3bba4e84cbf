-- A batch above the synchronous limit is ingested by the worker in parts of about INGEST_CHUNK_ROWS rows, one job
-- run (one transaction) each, so that people using the app wait behind one part at most and ingestion can give way
-- between parts (src/server/ingest/batchTask.ts). done_rows: how many of its rows (in time order) are committed;
-- partial: the receipt of those rows so far, merged into the batch's receipt when the last part is done.
ALTER TABLE "ingest_batches" ADD COLUMN "done_rows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ingest_batches" ADD COLUMN "partial" jsonb;
