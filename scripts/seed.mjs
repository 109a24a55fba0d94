#!/usr/bin/env node
// npm run db:seed: load the reference upstream's demo seed (functions/reference/seed/*.sql, see
// functions/reference/SEED.md) into the LOCAL D1 database, after applying the schema migrations.
// Idempotent: run it as often as you like.
//
//   npm run db:seed                       local, .wrangler/state (or PERSIST_DIR)
//   npm run db:seed -- --remote --env staging   a REMOTE demo database, on purpose (docs/deploy.md);
//                                         wrangler asks before it writes. Never on a production
//                                         database: it adds fake demo contacts.
import { migrateLocal, run, seedFiles, seedLocal } from './lib.mjs';

const remote = process.argv.includes('--remote');
const envAt = process.argv.indexOf('--env');
const env = envAt >= 0 ? process.argv[envAt + 1] : undefined;

if (remote) {
  if (!env) {
    console.error('--remote needs --env NAME (wrangler.toml [env.NAME]; the top level is the local Worker).');
    process.exit(2);
  }
  console.log(
    `Loading the DEMO seed into the remote D1 database "DB" of wrangler.toml [env.${env}].\n` +
      'It adds fake expos and contacts (functions/reference/SEED.md): only for a demo deployment.\n',
  );
  for (const file of seedFiles()) await run('npx', ['wrangler', 'd1', 'execute', 'DB', '--remote', '--env', env, '--file', file]);
} else {
  const persist = process.env.PERSIST_DIR ?? '.wrangler/state';
  await migrateLocal(persist);
  await seedLocal(persist);
}
