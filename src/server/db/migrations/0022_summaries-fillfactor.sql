-- property_summaries is updated in place by triggers on every ingested batch and metadata change (0017). PGlite has
-- no autovacuum, so with full pages every update left a dead row version on a new page: in a measurement of 1,000
-- summaries, 1,500 rounds of trigger-like updates grew the table from about 100 KB to 2.5 MB and kept growing.
-- With half of each page kept free the updates stay on their page (HOT) and page pruning reclaims the old
-- versions without VACUUM: the same rounds stayed at 200 KB. The rewrite packs the existing rows to the new fill.
ALTER TABLE "property_summaries" SET (fillfactor = 50);--> statement-breakpoint
CREATE TEMP TABLE "property_summaries_copy" AS SELECT * FROM "property_summaries";--> statement-breakpoint
TRUNCATE "property_summaries";--> statement-breakpoint
INSERT INTO "property_summaries" SELECT * FROM "property_summaries_copy";--> statement-breakpoint
DROP TABLE "property_summaries_copy";
