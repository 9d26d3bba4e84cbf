-- Where an allocation statement came from: 'import' (an operator's file, through the CLI or the console) or 'demo'
-- (the demo's own, src/server/demo/statements.ts). The demo refreshes its own statements as its history grows and
-- must leave imported ones alone; it used to tell them by a creation time of 10:00:00 sharp, Copenhagen time, on
-- the demo property, which an import made at that moment would have matched too. The rows made so far are told
-- the same way, once, here.
ALTER TABLE "allocation_statements" ADD COLUMN "source" text DEFAULT 'import' NOT NULL;--> statement-breakpoint
ALTER TABLE "allocation_statements" ADD CONSTRAINT "allocation_statements_source" CHECK ("source" IN ('import', 'demo'));--> statement-breakpoint
UPDATE "allocation_statements" s SET "source" = 'demo'
  FROM "tenancies" t, "apartments" a, "properties" p
 WHERE t.id = s.tenancy_id AND a.id = t.apartment_id AND p.id = a.property_id AND p.number = '1001'
   AND to_char(s.created_at AT TIME ZONE 'Europe/Copenhagen', 'HH24:MI:SS.US') = '10:00:00.000000';
