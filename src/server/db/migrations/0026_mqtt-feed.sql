-- The MQTT feed as its subscriber last reported it (src/server/mqtt/status.ts): connected or not and since when, the
-- broker's latest error, the last telegram stored, and the subscriber's last report (at least every 30 s while it
-- runs), one row per subscriber's client id. The console's data-quality page shows it to the feed's organisation.
-- alerted_at: when the feed check (src/server/mqtt/alert.ts) mailed its admins that it is down; null while up.
CREATE TABLE "mqtt_feed" (
	"client_id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"topic" text NOT NULL,
	"connected" boolean NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"last_error" text,
	"last_telegram_at" timestamp with time zone,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"alerted_at" timestamp with time zone
);
