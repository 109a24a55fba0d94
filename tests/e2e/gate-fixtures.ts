/**
 * What the gate specs share: the database of the server a test talks to, and a fresh
 * registration on expo 1308 to scan (its code in the registration codes' alphabet).
 */
import { randomBytes } from 'node:crypto';
import type { TestInfo } from '@playwright/test';
import { baseUrl } from './fixtures';
import { e2eServer } from '../../scripts/lib.mjs';
import { execute } from '../../scripts/gate.mjs';
import { CODE_ALPHABET } from '../../src/lib/gate/code';

/** The persist directory of the e2e server this test's project talks to. */
export function persistOf(info: TestInfo): string {
  const port = Number(new URL(baseUrl(info)).port);
  return e2eServer(port - Number(process.env.E2E_PORT ?? 8790)).persist;
}

/** A fresh 1308 registration with maxCount 1 named `name`: its code (`prefix` and 14 random base32 characters). */
export async function freshCode(info: TestInfo, prefix: string, name: string): Promise<string> {
  const code = `${prefix}${Array.from(randomBytes(14), (b) => CODE_ALPHABET[b & 31]).join('')}`;
  await execute(
    `INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime, use_status, used_count, max_count, audit_status) VALUES (1308, 21308, '${code}', '${name.replace(/'/g, "''")}', 0, '2026-03-01 10:00:00', 0, 0, 1, 0)`,
    { db: 'DB', persist: persistOf(info) },
  );
  return code;
}
