// node:test against signkit-mock: README, "Using the mock from another
// language", shows the first part of this file. SIGNKIT_MOCK_BIN names the
// binary (default: signkit-mock on PATH). Run with
// SIGNKIT_MOCK_BIN=PATH node --test tests/node/mock.test.mjs (Node 20 or newer).

// mock.test.mjs: one signkit-mock for the file, a new customer for each test.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

let mock, base;
before(async () => {
  mock = spawn(process.env.SIGNKIT_MOCK_BIN ?? 'signkit-mock', ['-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(mock, 'spawn'); // rejects when the binary cannot be started
  const [line] = await once(createInterface({ input: mock.stdout }), 'line', { signal: AbortSignal.timeout(10_000) });
  assert.match(line, /^listening on http:\/\//); // "listening on http://127.0.0.1:PORT"
  base = line.split(' ').at(-1);
});
after(() => mock.kill()); // SIGTERM: the mock shuts down cleanly

async function call(method, path, body, token) {
  const headers = { 'Content-Type': 'application/json', ...(token && { Authorization: `Bearer ${token}` }) };
  const res = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
  if (!res.ok) assert.fail(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

// A new customer's admin user: { clientId, clientSecret, apiKey, apiSecret, customerId, userId }.
// Each test sees only its own forms, case files and subscriptions.
const newCustomer = () => call('POST', '/mock/users', { name: 'Test admin', email: 'admin@example.com', admin: true, newCustomer: true });

// (end of README's excerpt)

import { createHash, randomBytes } from 'node:crypto';

// The answers' types, generated from the mock's OpenAPI description
// (GET /mock/openapi.json) by openapi-typescript into ./openapi.d.ts (imported as
// ./openapi.js, as Node's ESM resolution names it):
// .ci/openapi-ts.sh generates it and type-checks this file against it
// (tsc --checkJs); node itself reads none of this.
/** @typedef {import('./openapi.js').components['schemas']} Schemas */
/** @typedef {import('./openapi.js').paths} Paths */
/** @typedef {Schemas['Identity']} Identity */
/** @typedef {Schemas['Token']} Token */
/** @typedef {Schemas['MockToken']} MockToken */
/** @typedef {Schemas['CaseFile']} CaseFile */
/** @typedef {Schemas['Subscription']} Subscription */
/** @typedef {Paths['/webhook/api/v1/subscriptions']['get']['responses'][200]['content']['application/json']} SubscriptionList */

// A token by the platform's API Keys Grant: digest = base64(SHA-1(nonce ‖ created_at ‖ API secret)).
/** @param {Identity} c @returns {Promise<Token>} */
async function apiKeysGrant(c) {
  const nonce = randomBytes(16);
  const created = new Date().toISOString().replace(/\.\d+Z$/, 'Z'); // 2006-01-02T15:04:05Z
  const digest = createHash('sha1').update(nonce).update(created + c.apiSecret).digest('base64');
  return call('POST', '/auth/oauth/token', /** @satisfies {Schemas['TokenRequest']} */ ({
    grant_type: 'api_keys', client_id: c.clientId, client_secret: c.clientSecret, key: c.apiKey,
    nonce: nonce.toString('base64'), created_at: created, digest,
  }));
}

test('a token by the API Keys Grant; a new customer has no case files', async () => {
  /** @type {Identity} */
  const customer = await newCustomer();
  const token = await apiKeysGrant(customer);
  assert.equal(token.token_type, 'Bearer');
  assert.equal(token.expires_in, 600);
  /** @type {CaseFile[]} */
  const caseFiles = await call('GET', '/api/v1/casefiles', undefined, token.access_token);
  assert.deepEqual(caseFiles, []);
});

test("customers do not see each other's subscriptions", async () => {
  /** @type {Identity} */
  const customer = await newCustomer();
  /** @type {MockToken} */
  const { access_token: token } = await call('POST', '/mock/token', { userId: customer.userId }); // mock only
  /** @type {Subscription} */
  const sub = await call('POST', '/webhook/api/v1/subscriptions',
    /** @satisfies {Schemas['SubscriptionRequest']} */ ({ endpoint: 'http://127.0.0.1:9/webhooks', eventTypes: ['sign.casefile.completed'] }), token);
  assert.equal(sub.isActive, true);
  assert.equal(sub.customerId, customer.customerId);
  /** @type {SubscriptionList} */
  const { items } = await call('GET', '/webhook/api/v1/subscriptions', undefined, token);
  assert.deepEqual(items.map((s) => s.id), [sub.id]);

  const other = await apiKeysGrant(await newCustomer());
  /** @type {SubscriptionList} */
  const others = await call('GET', '/webhook/api/v1/subscriptions', undefined, other.access_token);
  assert.deepEqual(others.items, []);
});
