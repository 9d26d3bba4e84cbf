-- What each ingestion API key sent, per Copenhagen day: batches answered with a receipt, their rows by outcome, and
-- the newest refusal (line and reason). The console's API keys page shows the last seven days, so an operator sees
-- which gateway sends rows that are refused or held back (src/server/ingest/apiKeys.ts, recordKeyActivity).
CREATE TABLE "api_key_days" (
	"api_key_id" integer NOT NULL REFERENCES "api_keys"("id") ON DELETE CASCADE,
	"day" date NOT NULL,
	"batches" integer DEFAULT 0 NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"duplicate" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"quarantined" integer DEFAULT 0 NOT NULL,
	"last_refusal" text,
	"last_refusal_at" timestamp with time zone,
	PRIMARY KEY ("api_key_id", "day")
);
