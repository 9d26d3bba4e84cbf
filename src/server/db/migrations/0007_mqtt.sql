CREATE TABLE "mqtt_inbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"payload" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mqtt_unmatched" (
	"radio_id" text NOT NULL,
	"reason" text NOT NULL,
	"telegrams" integer DEFAULT 0 NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"driver" text,
	"last_payload" text NOT NULL,
	"last_detail" text,
	CONSTRAINT "mqtt_unmatched_radio_id_reason_pk" PRIMARY KEY("radio_id","reason")
);
