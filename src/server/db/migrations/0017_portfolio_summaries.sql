CREATE TABLE "property_summaries" (
	"property_id" integer PRIMARY KEY NOT NULL,
	"dirty" boolean DEFAULT true NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_until" timestamp with time zone,
	"apartments" integer DEFAULT 0 NOT NULL,
	"meters" integer DEFAULT 0 NOT NULL,
	"reporting" integer DEFAULT 0 NOT NULL,
	"last_reading_at" timestamp with time zone,
	"open_issues" integer DEFAULT 0 NOT NULL,
	"tenancies" integer DEFAULT 0 NOT NULL,
	"invited" integer DEFAULT 0 NOT NULL,
	"activated" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "property_summaries" ADD CONSTRAINT "property_summaries_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every property has a summary row (dirty until the portfolio first computes it), so the triggers below only update.
INSERT INTO "property_summaries" ("property_id") SELECT "id" FROM "properties";--> statement-breakpoint
CREATE FUNCTION "property_summaries_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "property_summaries" ("property_id") VALUES (NEW."id") ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "properties_summary_add" AFTER INSERT ON "properties"
  FOR EACH ROW EXECUTE FUNCTION "property_summaries_add"();--> statement-breakpoint
-- Meters change with every ingested batch (last_reading_at): statement triggers, one update per property touched.
CREATE FUNCTION "property_summaries_meters_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "property_summaries" s SET "dirty" = true, "generation" = s."generation" + 1
  WHERE s."property_id" IN (SELECT mp."property_id" FROM new_rows n
                            JOIN "measurement_points" mp ON mp."id" = n."measurement_point_id");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "property_summaries_meters_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "property_summaries" s SET "dirty" = true, "generation" = s."generation" + 1
  WHERE s."property_id" IN (SELECT mp."property_id" FROM old_rows o
                            JOIN "measurement_points" mp ON mp."id" = o."measurement_point_id");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "meters_summary_insert" AFTER INSERT ON "meters"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_summaries_meters_new"();--> statement-breakpoint
CREATE TRIGGER "meters_summary_update_new" AFTER UPDATE ON "meters"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_summaries_meters_new"();--> statement-breakpoint
CREATE TRIGGER "meters_summary_update_old" AFTER UPDATE ON "meters"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_summaries_meters_old"();--> statement-breakpoint
CREATE TRIGGER "meters_summary_delete" AFTER DELETE ON "meters"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "property_summaries_meters_old"();--> statement-breakpoint
-- Metadata (flats, points, tenancies, invitations, members, data issues): row triggers. TG_ARGV[0] says how a row
-- names its property: 'property' (property_id), 'apartment' (apartment_id) or 'tenancy' (tenancy_id).
CREATE FUNCTION "property_summaries_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb[] := ARRAY[]::jsonb[];
  r jsonb;
  pid integer;
BEGIN
  IF TG_OP <> 'DELETE' THEN changed := array_append(changed, to_jsonb(NEW)); END IF;
  IF TG_OP <> 'INSERT' THEN changed := array_append(changed, to_jsonb(OLD)); END IF;
  FOREACH r IN ARRAY changed LOOP
    pid := NULL;
    IF TG_ARGV[0] = 'property' THEN
      pid := (r->>'property_id')::integer;
    ELSIF TG_ARGV[0] = 'apartment' THEN
      SELECT a."property_id" INTO pid FROM "apartments" a WHERE a."id" = (r->>'apartment_id')::integer;
    ELSE
      SELECT a."property_id" INTO pid FROM "tenancies" t JOIN "apartments" a ON a."id" = t."apartment_id"
      WHERE t."id" = (r->>'tenancy_id')::integer;
    END IF;
    IF pid IS NOT NULL THEN
      UPDATE "property_summaries" SET "dirty" = true, "generation" = "generation" + 1 WHERE "property_id" = pid;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "apartments_summary" AFTER INSERT OR UPDATE OR DELETE ON "apartments"
  FOR EACH ROW EXECUTE FUNCTION "property_summaries_row"('property');--> statement-breakpoint
CREATE TRIGGER "measurement_points_summary" AFTER INSERT OR UPDATE OR DELETE ON "measurement_points"
  FOR EACH ROW EXECUTE FUNCTION "property_summaries_row"('property');--> statement-breakpoint
CREATE TRIGGER "data_issues_summary" AFTER INSERT OR UPDATE OR DELETE ON "data_issues"
  FOR EACH ROW EXECUTE FUNCTION "property_summaries_row"('property');--> statement-breakpoint
CREATE TRIGGER "tenancies_summary" AFTER INSERT OR UPDATE OR DELETE ON "tenancies"
  FOR EACH ROW EXECUTE FUNCTION "property_summaries_row"('apartment');--> statement-breakpoint
CREATE TRIGGER "invitations_summary" AFTER INSERT OR UPDATE OR DELETE ON "invitations"
  FOR EACH ROW EXECUTE FUNCTION "property_summaries_row"('tenancy');--> statement-breakpoint
CREATE TRIGGER "tenancy_members_summary" AFTER INSERT OR UPDATE OR DELETE ON "tenancy_members"
  FOR EACH ROW EXECUTE FUNCTION "property_summaries_row"('tenancy');
