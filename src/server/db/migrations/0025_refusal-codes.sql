-- Refusals as codes (src/lib/refusalCodes.ts): the console shows a key's newest refused row and a radio id's latest
-- untaken telegram in the operator's language from the code and its params; the English texts stay beside them
-- (what `npm run cli -- api-key list` and `mqtt unknown` print, and the console's fallback for rows stored before,
-- whose code is null).
ALTER TABLE "api_key_days" ADD COLUMN "last_refusal_line" integer;--> statement-breakpoint
ALTER TABLE "api_key_days" ADD COLUMN "last_refusal_code" text;--> statement-breakpoint
ALTER TABLE "api_key_days" ADD COLUMN "last_refusal_params" jsonb;--> statement-breakpoint
ALTER TABLE "mqtt_unmatched" ADD COLUMN "last_code" text;--> statement-breakpoint
ALTER TABLE "mqtt_unmatched" ADD COLUMN "last_params" jsonb;
