DROP INDEX "name_profiles_name_idx";--> statement-breakpoint
CREATE INDEX "name_profiles_name_prefix_idx" ON "name_profiles" USING btree (lower("name") text_pattern_ops);