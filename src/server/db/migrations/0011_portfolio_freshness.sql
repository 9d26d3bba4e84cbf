ALTER TABLE "meters" ADD COLUMN "last_reading_at" timestamp with time zone;--> statement-breakpoint
UPDATE "meters" SET "last_reading_at" = (SELECT max(r."ts") FROM "register_readings" r WHERE r."meter_id" = "meters"."id");--> statement-breakpoint
CREATE FUNCTION "meters_last_reading_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "meters" m SET "last_reading_at" = n."newest"
  FROM (SELECT "meter_id", max("ts") AS "newest" FROM new_rows GROUP BY "meter_id") n
  WHERE m."id" = n."meter_id" AND (m."last_reading_at" IS NULL OR m."last_reading_at" < n."newest");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "register_readings_last_reading_insert" AFTER INSERT ON "register_readings"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "meters_last_reading_after_insert"();--> statement-breakpoint
CREATE FUNCTION "meters_last_reading_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "meters" m SET "last_reading_at" = (SELECT max(r."ts") FROM "register_readings" r WHERE r."meter_id" = m."id")
  WHERE m."id" IN (SELECT DISTINCT "meter_id" FROM old_rows);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "register_readings_last_reading_delete" AFTER DELETE ON "register_readings"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "meters_last_reading_after_delete"();
