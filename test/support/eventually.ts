import assert from 'node:assert/strict';

/**
 * Polls `check` until it passes, failing the test after `timeoutMs`: objects reach watch-fed
 * state (the RBAC index, the node graph, caches) a moment after their write is acknowledged.
 */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`timed out waiting until ${what}`);
}
