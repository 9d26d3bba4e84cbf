-- Hours derived before hourly_consumption.estimated existed (migration 0009): mark those that lie in an interval
-- longer than 1 h 15 min between two readings of a register (ESTIMATED_AFTER_SECONDS in ingest/hourly.ts), then
-- count them into the daily and monthly rollups. One pass over the readings; a database without gaps changes nothing.
UPDATE hourly_consumption h SET estimated = true
FROM (
  SELECT point_id, t0, t1 FROM (
    SELECT m.measurement_point_id AS point_id, lag(r.ts) OVER (PARTITION BY r.meter_id ORDER BY r.ts) AS t0, r.ts AS t1
    FROM register_readings r
    JOIN meters m ON m.id = r.meter_id
    JOIN measurement_points p ON p.id = m.measurement_point_id AND p.reading_kind = 'register'
  ) iv
  WHERE t1 - t0 > interval '4500 seconds'
) g
WHERE h.measurement_point_id = g.point_id AND NOT h.estimated
  AND h.hour_start >= date_trunc('hour', g.t0, 'UTC') AND h.hour_start < g.t1;
--> statement-breakpoint
UPDATE daily_rollups d SET estimated = s.n
FROM (
  SELECT measurement_point_id, (hour_start AT TIME ZONE 'Europe/Copenhagen')::date AS day, count(*)::int AS n
  FROM hourly_consumption WHERE estimated GROUP BY 1, 2
) s
WHERE d.measurement_point_id = s.measurement_point_id AND d.day = s.day AND d.estimated <> s.n;
--> statement-breakpoint
UPDATE monthly_rollups mr SET estimated = s.n
FROM (
  SELECT measurement_point_id, date_trunc('month', day::timestamp)::date AS month, sum(estimated)::int AS n
  FROM daily_rollups WHERE estimated > 0 GROUP BY 1, 2
) s
WHERE mr.measurement_point_id = s.measurement_point_id AND mr.month = s.month AND mr.estimated <> s.n;
