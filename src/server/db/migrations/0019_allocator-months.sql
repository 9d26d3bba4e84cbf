-- Per property and calendar month: the allocator figures every tenancy's monthly report reads (src/lib/allocators.ts,
-- src/server/allocators/propertyMonths.ts), computed once from monthly_rollups and reused, so the worker's month-end
-- pass reads a property's points once per month instead of once per tenancy (docs/scale.md).
-- A row is fresh while "computed_version" = "version". The triggers below bump "version" whenever a heat or
-- allocator point's monthly rollup changes (ingestion, late data, any path) or the property's points change; the
-- reader recomputes stale months and writes them only if the version it computed at is still current.
CREATE TABLE "property_allocator_months" (
	"property_id" integer NOT NULL REFERENCES "properties"("id") ON DELETE CASCADE,
	"month" date NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"computed_version" bigint,
	"supply" numeric,
	"heat_only" numeric,
	"metered_heat" numeric,
	"metered_units" numeric,
	"units" numeric,
	PRIMARY KEY ("property_id", "month")
);
--> statement-breakpoint
CREATE FUNCTION "property_allocator_months_rollups_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Upserted, not only updated: a reader that computed a missing month before this change committed then finds
  -- the row (version 1) and does not write its figures.
  INSERT INTO "property_allocator_months" AS c ("property_id", "month", "version")
  SELECT DISTINCT mp."property_id", r."month", 1 FROM changed_rows r
    JOIN "measurement_points" mp ON mp."id" = r."measurement_point_id"
   WHERE mp."reading_kind" = 'register' AND mp."quantity" IN ('heat-energy', 'hca')
   ORDER BY 1, 2
  ON CONFLICT ("property_id", "month") DO UPDATE SET "version" = c."version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "monthly_rollups_allocators_insert" AFTER INSERT ON "monthly_rollups"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_allocator_months_rollups_changed"();
--> statement-breakpoint
CREATE TRIGGER "monthly_rollups_allocators_update" AFTER UPDATE ON "monthly_rollups"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_allocator_months_rollups_changed"();
--> statement-breakpoint
CREATE TRIGGER "monthly_rollups_allocators_delete" AFTER DELETE ON "monthly_rollups"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_allocator_months_rollups_changed"();
--> statement-breakpoint
-- A point added, removed or moved changes which flats count as metered: every month of its property is stale. The
-- property's advisory lock (taken shared by a reader while it computes and writes) closes the race with a reader
-- that computed before this change committed.
CREATE FUNCTION "property_allocator_months_points_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7410019, p.property_id)
     FROM (SELECT DISTINCT "property_id" FROM changed_rows ORDER BY 1) p;
  UPDATE "property_allocator_months" c SET "version" = c."version" + 1
   WHERE c."property_id" IN (SELECT "property_id" FROM changed_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "measurement_points_allocators_insert" AFTER INSERT ON "measurement_points"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_allocator_months_points_changed"();
--> statement-breakpoint
CREATE TRIGGER "measurement_points_allocators_delete" AFTER DELETE ON "measurement_points"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_allocator_months_points_changed"();
--> statement-breakpoint
CREATE TRIGGER "measurement_points_allocators_update_old" AFTER UPDATE ON "measurement_points"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_allocator_months_points_changed"();
--> statement-breakpoint
CREATE TRIGGER "measurement_points_allocators_update_new" AFTER UPDATE ON "measurement_points"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_allocator_months_points_changed"();
