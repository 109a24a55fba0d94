#!/usr/bin/env node
// One command per environment (docs/deploy.md): build that environment, check it, deploy it and no
// other.
//
//   npm run deploy:production          = node scripts/deploy.mjs deploy production
//   npm run deploy:staging             = node scripts/deploy.mjs deploy staging
//   npm run check [-- staging]         = node scripts/deploy.mjs check [ENV]: every step but the
//                                        deploy (wrangler deploy --dry-run), for ENV or every [env.*]
//
// Steps for an environment: scripts/check-config.mjs on wrangler.toml for it (no development face,
// no secret in vars, no platform log of URLs, no placeholder, no address inherited from the top
// level); `CLOUDFLARE_ENV=<env> astro build`, which writes dist/server/wrangler.json for that
// environment alone; the same check on the built file, which must be that environment's Worker
// (its name and hosts); `wrangler deploy --dry-run`, then `wrangler deploy` of the built file.
// Afterwards the build's redirect `.wrangler/deploy/config.json` is removed, so a plain
// `wrangler deploy` later does not ship whichever environment was built last: it reads
// wrangler.toml's top level, the local Worker `expo-pass-local`, whose placeholder database ids
// Cloudflare refuses.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { allProblems, parseToml, routeHosts } from './check-config.mjs';
import { run } from './lib.mjs';

export const SOURCE = 'wrangler.toml';
export const BUILT = 'dist/server/wrangler.json';
/** Written by the Cloudflare Vite plugin on each build: where a plain `wrangler deploy` looks first. */
export const DEPLOY_REDIRECT = '.wrangler/deploy/config.json';

/**
 * What a built config must be to be `env`'s: its Worker name and its route hosts are the ones
 * `[env.<env>]` declares (a build of another environment, or of the local top level, is refused).
 * @returns {string[]} one message per problem
 */
export function builtProblems(built, source, env) {
  const want = source?.env?.[env];
  if (!want) return [`[env.${env}] is not declared in ${SOURCE}.`];
  const problems = [];
  if (built?.name !== want.name)
    problems.push(
      `${BUILT} is the Worker "${built?.name}", not [env.${env}]'s "${want.name}": build with CLOUDFLARE_ENV=${env}.`,
    );
  const got = routeHosts(built).sort().join(', ');
  const expected = routeHosts(want).sort().join(', ');
  if (got !== expected) problems.push(`${BUILT} answers on [${got}], [env.${env}] declares [${expected}].`);
  if ((built?.workers_dev ?? undefined) !== (want.workers_dev ?? undefined) && want.workers_dev !== undefined)
    problems.push(`${BUILT} has workers_dev = ${built?.workers_dev}, [env.${env}] declares ${want.workers_dev}.`);
  return problems;
}

/**
 * The environments a command acts on: the one named (it must be declared), or for `check` without
 * a name every `[env.*]`; `deploy` needs a name.
 */
export function environmentsFor(command, named, source) {
  const declared = Object.keys(source?.env ?? {});
  if (command !== 'check' && command !== 'deploy')
    throw new Error(`unknown command "${command}": check [ENV] | deploy ENV`);
  if (named === undefined) {
    if (command === 'deploy')
      throw new Error(`deploy needs an environment: ${declared.map((e) => `npm run deploy:${e}`).join(' or ')}`);
    return declared;
  }
  if (!declared.includes(named))
    throw new Error(`[env.${named}] is not declared in ${SOURCE} (declared: ${declared.join(', ') || 'none'}).`);
  return [named];
}

/** Fails with the problems' list when there is any. */
function refuse(where, problems) {
  if (problems.length === 0) return;
  throw new Error(`${where} is not safe to deploy:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

async function main() {
  const [command = 'check', named] = process.argv.slice(2);
  const source = parseToml(readFileSync(SOURCE, 'utf8'));
  const envs = environmentsFor(command, named, source);
  try {
    for (const env of envs) {
      console.log(`\n== ${command} ${env} ==`);
      refuse(`${SOURCE} [env.${env}]`, allProblems(source, { env }));
      await run('npx', ['astro', 'build'], { env: { CLOUDFLARE_ENV: env } });
      const built = JSON.parse(readFileSync(BUILT, 'utf8'));
      refuse(`${BUILT} (${env})`, [...allProblems(built), ...builtProblems(built, source, env)]);
      await run('npx', ['wrangler', 'deploy', '--dry-run', '--config', BUILT]);
      if (command === 'deploy') await run('npx', ['wrangler', 'deploy', '--config', BUILT]);
      console.log(`${env}: ${command === 'deploy' ? 'deployed' : 'checked (not deployed)'}.`);
    }
  } finally {
    if (existsSync(DEPLOY_REDIRECT)) rmSync(DEPLOY_REDIRECT);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e) => {
    console.error(`\n${e instanceof Error ? e.message : e}`);
    process.exit(1);
  });
}
