// drizzle-kit configuration: `npm run db:generate` writes a migration for every schema change into
// ./drizzle (committed). Paths are relative to this file's folder, where the script runs drizzle-kit.
import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/platform/db/schema.ts',
  out: './drizzle',
})
