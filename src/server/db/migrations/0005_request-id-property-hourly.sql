CREATE TABLE "property_hourly_rollups" (
	"property_id" integer NOT NULL,
	"quantity" text NOT NULL,
	"hour_start" timestamp with time zone NOT NULL,
	"sum" numeric NOT NULL,
	"area_m2" numeric NOT NULL,
	"count" integer NOT NULL,
	"apartments" integer NOT NULL,
	CONSTRAINT "property_hourly_rollups_property_id_quantity_hour_start_pk" PRIMARY KEY("property_id","quantity","hour_start")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "property_hourly_rollups" ADD CONSTRAINT "property_hourly_rollups_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Backfill from the hourly values already stored (as src/server/ingest/propertyHourly.ts computes them).
INSERT INTO "property_hourly_rollups" (property_id, quantity, hour_start, sum, area_m2, count, apartments)
SELECT pa.property_id, pa.quantity, pa.hour_start, sum(pa.s), sum(ap.area_m2), sum(pa.c)::int, count(*)::int
FROM (
  SELECT p.property_id, p.quantity, h.hour_start, p.apartment_id, sum(h.value) AS s, count(*) AS c
  FROM measurement_points p JOIN hourly_consumption h ON h.measurement_point_id = p.id
  WHERE p.apartment_id IS NOT NULL
  GROUP BY 1, 2, 3, 4
) pa JOIN apartments ap ON ap.id = pa.apartment_id
GROUP BY 1, 2, 3;
