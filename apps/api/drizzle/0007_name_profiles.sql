CREATE TABLE "name_profiles" (
	"address" text PRIMARY KEY NOT NULL,
	"name" text,
	"avatar_record" text,
	"avatar_url" text,
	"resolved_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"requested_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "name_profiles_requested_at_idx" ON "name_profiles" USING btree ("requested_at") WHERE "name_profiles"."requested_at" is not null;