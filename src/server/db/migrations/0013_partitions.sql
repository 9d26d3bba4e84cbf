-- Monthly partitions of the two hourly-grain tables (issue 20): register_readings by ts, hourly_consumption by
-- hour_start, one partition per UTC calendar month (register_readings_y2026m11, ...), plus a DEFAULT partition so
-- no row is ever refused for a missing month. The worker creates the months ahead (task `partitions`,
-- src/server/jobs/tasks/partitions.ts), and ensure_monthly_partitions moves any rows the default partition holds
-- for a month into that month's new partition. Primary keys keep their columns (they already hold the partition
-- key); the foreign keys and meters.last_reading_at's statement triggers (0011) are defined on the parents.
-- Existing rows are copied into the new tables once, here.
CREATE FUNCTION "ensure_monthly_partitions"("parent" text, "from_month" date, "to_month" date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  month date := date_trunc('month', from_month)::date;
  last date := date_trunc('month', to_month)::date;
  made integer := 0;
  part text;
  bounds text;
  lo text;
  hi text;
  key text := CASE parent WHEN 'register_readings' THEN 'ts' WHEN 'hourly_consumption' THEN 'hour_start' END;
BEGIN
  IF key IS NULL THEN
    RAISE EXCEPTION 'ensure_monthly_partitions: % is not a partitioned table of the app', parent;
  END IF;
  WHILE month <= last LOOP
    part := format('%s_y%sm%s', parent, to_char(month, 'YYYY'), to_char(month, 'MM'));
    IF to_regclass(format('public.%I', part)) IS NULL THEN
      lo := to_char(month, 'YYYY-MM-DD') || ' 00:00:00+00';
      hi := to_char(month + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00';
      bounds := format('FROM (%L) TO (%L)', lo, hi);
      -- A new, empty month: the default partition's rows of that month (if any) move into it before it is attached,
      -- as ATTACH requires. Done on the table, then attached, so the default partition is scanned only once.
      EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, parent);
      EXECUTE format(
        'WITH moved AS (DELETE FROM %I WHERE %I >= %L::timestamptz AND %I < %L::timestamptz RETURNING *) '
        'INSERT INTO %I SELECT * FROM moved',
        parent || '_default', key, lo, key, hi, part);
      EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES %s', parent, part, bounds);
      made := made + 1;
    END IF;
    month := (month + interval '1 month')::date;
  END LOOP;
  RETURN made;
END $$;--> statement-breakpoint

ALTER TABLE "register_readings" RENAME TO "register_readings_unpartitioned";--> statement-breakpoint
ALTER TABLE "register_readings_unpartitioned" RENAME CONSTRAINT "register_readings_meter_id_ts_pk" TO "register_readings_unpartitioned_pk";--> statement-breakpoint
DROP TRIGGER "register_readings_last_reading_insert" ON "register_readings_unpartitioned";--> statement-breakpoint
DROP TRIGGER "register_readings_last_reading_delete" ON "register_readings_unpartitioned";--> statement-breakpoint
CREATE TABLE "register_readings" (
	"meter_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"value" numeric NOT NULL,
	CONSTRAINT "register_readings_meter_id_ts_pk" PRIMARY KEY("meter_id","ts")
) PARTITION BY RANGE ("ts");--> statement-breakpoint
CREATE TABLE "register_readings_default" PARTITION OF "register_readings" DEFAULT;--> statement-breakpoint

ALTER TABLE "hourly_consumption" RENAME TO "hourly_consumption_unpartitioned";--> statement-breakpoint
ALTER TABLE "hourly_consumption_unpartitioned" RENAME CONSTRAINT "hourly_consumption_measurement_point_id_hour_start_pk" TO "hourly_consumption_unpartitioned_pk";--> statement-breakpoint
CREATE TABLE "hourly_consumption" (
	"measurement_point_id" integer NOT NULL,
	"hour_start" timestamp with time zone NOT NULL,
	"value" numeric NOT NULL,
	"estimated" boolean DEFAULT false NOT NULL,
	CONSTRAINT "hourly_consumption_measurement_point_id_hour_start_pk" PRIMARY KEY("measurement_point_id","hour_start")
) PARTITION BY RANGE ("hour_start");--> statement-breakpoint
CREATE TABLE "hourly_consumption_default" PARTITION OF "hourly_consumption" DEFAULT;--> statement-breakpoint

-- The months from the oldest row (or five years back, whichever is older; at most 20 years back: older rows
-- stay in the default partition until the worker gives their month a partition) to three months ahead. Five
-- years back, so that history loaded after this migration (the demo's two years, CSV imports) lands in its month.
SELECT "ensure_monthly_partitions"('register_readings',
  GREATEST(LEAST(COALESCE((SELECT min("ts") FROM "register_readings_unpartitioned"), now()), now() - interval '5 years'), now() - interval '20 years')::date,
  (GREATEST(COALESCE((SELECT max("ts") FROM "register_readings_unpartitioned"), now()), now()) + interval '3 months')::date);--> statement-breakpoint
SELECT "ensure_monthly_partitions"('hourly_consumption',
  GREATEST(LEAST(COALESCE((SELECT min("hour_start") FROM "hourly_consumption_unpartitioned"), now()), now() - interval '5 years'), now() - interval '20 years')::date,
  (GREATEST(COALESCE((SELECT max("hour_start") FROM "hourly_consumption_unpartitioned"), now()), now()) + interval '3 months')::date);--> statement-breakpoint

INSERT INTO "register_readings" ("meter_id", "ts", "value")
  SELECT "meter_id", "ts", "value" FROM "register_readings_unpartitioned";--> statement-breakpoint
INSERT INTO "hourly_consumption" ("measurement_point_id", "hour_start", "value", "estimated")
  SELECT "measurement_point_id", "hour_start", "value", "estimated" FROM "hourly_consumption_unpartitioned";--> statement-breakpoint
DROP TABLE "register_readings_unpartitioned";--> statement-breakpoint
DROP TABLE "hourly_consumption_unpartitioned";--> statement-breakpoint

ALTER TABLE "register_readings" ADD CONSTRAINT "register_readings_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hourly_consumption" ADD CONSTRAINT "hourly_consumption_measurement_point_id_measurement_points_id_fk" FOREIGN KEY ("measurement_point_id") REFERENCES "public"."measurement_points"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE TRIGGER "register_readings_last_reading_insert" AFTER INSERT ON "register_readings"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "meters_last_reading_after_insert"();--> statement-breakpoint
CREATE TRIGGER "register_readings_last_reading_delete" AFTER DELETE ON "register_readings"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "meters_last_reading_after_delete"();
