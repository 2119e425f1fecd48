import { readFile } from 'node:fs/promises';
import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';
import { parseSigningKey } from '../../authn/service-account/service-account-keys.js';
import { ServiceAccountTokenSigner } from '../../authn/service-account/token-signer.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import type { Informer } from '../../client/informer/informer.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import {
  type ControllerContext,
  type ControllerDescriptor,
  configNumber,
  configString,
} from '../controller-descriptor.js';
import { errorText, isStatus, secretBytes, startResync, waitForInformers } from '../controller-support.js';

/** kube's default `ConcurrentSATokenSyncs`. */
export const DEFAULT_CONCURRENT_SA_TOKEN_SYNCS = 5;

/** The names a service-account token Secret is recognised by, in one domain. */
export interface TokenSecretNames {
  /** `<domain>/service-account-token` (kube: `kubernetes.io/service-account-token`). */
  readonly type: string;
  /** Annotation naming the account: `<domain>/service-account.name`. */
  readonly nameAnnotation: string;
  /** Annotation with the account's uid: `<domain>/service-account.uid`. */
  readonly uidAnnotation: string;
}

/** The token Secret names of `domain`. */
export function tokenSecretNames(domain: ApiDomain): TokenSecretNames {
  return {
    type: domain.key('', 'service-account-token'),
    nameAnnotation: domain.key('', 'service-account.name'),
    uidAnnotation: domain.key('', 'service-account.uid'),
  };
}

/**
 * True when `secret` is a token Secret of `account` (kube's `IsServiceAccountToken`): its type,
 * the name annotation equal to the account's name and the uid annotation, when set, its uid.
 */
export function isTokenOf(secret: ApiObject, account: { name: string; uid: string }, names: TokenSecretNames): boolean {
  if (secret.type !== names.type) return false;
  const a = secret.metadata.annotations ?? {};
  if ((a[names.nameAnnotation] ?? '') !== account.name) return false;
  const uid = a[names.uidAnnotation] ?? '';
  return uid === '' || uid === account.uid;
}

interface AccountKey {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

interface SecretKey extends AccountKey {
  readonly saName: string;
  readonly saUid: string;
}

const b64 = (s: string | Buffer) => (typeof s === 'string' ? Buffer.from(s, 'utf8') : s).toString('base64');

/**
 * kube-controller-manager's token controller (`serviceaccount-token-controller`): every Secret of
 * type `<domain>/service-account-token` gets `token` (a legacy JWT with issuer
 * `ApiDomain.legacyServiceAccountIssuer`, signed with `SAController.ServiceAccountKeyFile`'s
 * private key), `ca.crt` (`SAController.RootCAFile`, replaced when it differs) and `namespace`,
 * and the account's uid annotation; a token Secret whose account is gone (or has another uid) is
 * deleted, and so are the token Secrets of a deleted account; the reference to a deleted Secret
 * is removed from its account's `secrets`. `ConcurrentSATokenSyncs` workers per queue.
 */
class TokensController {
  private readonly names: TokenSecretNames;
  private readonly accountQueue: WorkQueue<string>;
  private readonly secretQueue: WorkQueue<string>;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly signer: ServiceAccountTokenSigner,
    private readonly rootCA: Buffer,
    private readonly accounts: Informer,
    private readonly secretsInformer: Informer,
    private readonly secrets: ResourceClient,
    private readonly accountsClient: ResourceClient,
  ) {
    this.names = tokenSecretNames(ctx.domain);
    this.accountQueue = new WorkQueue({ signal: ctx.signal, maxRetryDelayMs: 30_000 });
    this.secretQueue = new WorkQueue({ signal: ctx.signal, maxRetryDelayMs: 30_000 });
    const queueAccount = (sa: ApiObject) => this.accountQueue.add(JSON.stringify(accountKey(sa)));
    accounts.addHandlers({ onAdd: queueAccount, onUpdate: (_o, sa) => queueAccount(sa), onDelete: queueAccount });
    const queueSecret = (s: ApiObject) => {
      if (s.type === this.names.type) this.secretQueue.add(JSON.stringify(this.secretKey(s)));
    };
    secretsInformer.addHandlers({ onAdd: queueSecret, onUpdate: (_o, s) => queueSecret(s), onDelete: queueSecret });
  }

  private secretKey(s: ApiObject): SecretKey {
    const a = s.metadata.annotations ?? {};
    return {
      ...accountKey(s),
      saName: a[this.names.nameAnnotation] ?? '',
      saUid: a[this.names.uidAnnotation] ?? '',
    };
  }

  async run(workers: number): Promise<void> {
    if (!(await waitForInformers([this.accounts, this.secretsInformer], this.ctx.signal))) return;
    // Everything cached now (handlers added late do not hear of objects already listed), then
    // again every resync period.
    const all = () => {
      for (const sa of this.accounts.list()) this.accountQueue.add(JSON.stringify(accountKey(sa)));
      for (const s of this.secretsInformer.list()) {
        if (s.type === this.names.type) this.secretQueue.add(JSON.stringify(this.secretKey(s)));
      }
    };
    all();
    startResync(this.ctx.minResyncPeriodMs, this.ctx.signal, all);
    const onError = (what: string) => (key: string, err: unknown) =>
      this.ctx.logger.warn(`serviceaccount-token: retrying ${what}`, {
        key,
        error: errorText(err),
      });
    await Promise.all([
      this.accountQueue.run((k) => this.syncAccount(JSON.parse(k) as AccountKey), {
        workers,
        onError: onError('service account'),
      }),
      this.secretQueue.run((k) => this.syncSecret(JSON.parse(k) as SecretKey), {
        workers,
        onError: onError('secret'),
      }),
    ]);
  }

  /** The account `namespace/name` (with `uid` when given) from the cache, else live when `live`. */
  private async account(namespace: string, name: string, uid: string, live: boolean): Promise<ApiObject | undefined> {
    if (!name) return undefined;
    const cached = this.accounts.get(namespace, name);
    if (cached && (uid === '' || cached.metadata.uid === uid)) return cached;
    if (!live) return undefined;
    try {
      const sa = await this.accountsClient.get(namespace, name, this.ctx.signal);
      return uid === '' || sa.metadata.uid === uid ? sa : undefined;
    } catch (e) {
      if (isStatus(e, 404)) return undefined;
      throw e;
    }
  }

  private async syncAccount(key: AccountKey): Promise<void> {
    if (await this.account(key.namespace, key.name, key.uid, false)) return;
    // The account is gone: its tokens go too.
    for (const s of this.secretsInformer.list(key.namespace)) {
      if (isTokenOf(s, { name: key.name, uid: key.uid }, this.names)) {
        await this.deleteSecret(key.namespace, s.metadata.name ?? '', s.metadata.uid ?? '');
      }
    }
  }

  private async deleteSecret(namespace: string, name: string, uid: string): Promise<void> {
    try {
      await this.secrets.delete(namespace, name, { preconditions: { uid } }, this.ctx.signal);
    } catch (e) {
      if (!isStatus(e, 404) && !isStatus(e, 409)) throw e;
    }
  }

  private async syncSecret(key: SecretKey): Promise<void> {
    const cached = this.secretsInformer.get(key.namespace, key.name);
    if (!cached || (key.uid !== '' && cached.metadata.uid !== key.uid)) {
      // The Secret is gone: drop the account's reference to it.
      const sa = await this.account(key.namespace, key.saName, key.saUid, false);
      if (sa) await this.removeReference(key);
      return;
    }
    const sa = await this.account(key.namespace, key.saName, key.saUid, true);
    if (!sa) {
      await this.deleteSecret(key.namespace, key.name, key.uid);
      return;
    }
    await this.fillIfNeeded(sa, cached);
  }

  private needs(secret: ApiObject): { ca: boolean; namespace: boolean; token: boolean } {
    const ca = secretBytes(secret, 'ca.crt');
    return {
      ca: this.rootCA.length > 0 && !ca?.equals(this.rootCA),
      namespace: (secretBytes(secret, 'namespace')?.length ?? 0) === 0,
      token: (secretBytes(secret, 'token')?.length ?? 0) === 0,
    };
  }

  private async fillIfNeeded(sa: ApiObject, cached: ApiObject): Promise<void> {
    const n = this.needs(cached);
    if (!n.ca && !n.namespace && !n.token) return;
    let live: ApiObject;
    try {
      live = await this.secrets.get(cached.metadata.namespace ?? '', cached.metadata.name ?? '', this.ctx.signal);
    } catch (e) {
      if (isStatus(e, 404)) return;
      throw e;
    }
    const needs = this.needs(live);
    if (!needs.ca && !needs.namespace && !needs.token) return;
    const secret = structuredClone(live);
    const namespace = secret.metadata.namespace ?? '';
    const data = { ...((secret.data as Record<string, string> | undefined) ?? {}) };
    if (needs.ca) data['ca.crt'] = b64(this.rootCA);
    if (needs.namespace) data.namespace = b64(namespace);
    if (needs.token) {
      const token = await this.signer.signLegacy({
        namespace,
        serviceAccount: { name: sa.metadata.name ?? '', uid: sa.metadata.uid ?? '' },
        secretName: secret.metadata.name ?? '',
      });
      data.token = b64(token);
    }
    secret.data = data;
    secret.metadata.annotations = {
      ...(secret.metadata.annotations ?? {}),
      [this.names.nameAnnotation]: sa.metadata.name ?? '',
      [this.names.uidAnnotation]: sa.metadata.uid ?? '',
    };
    try {
      await this.secrets.update(secret, this.ctx.signal);
    } catch (e) {
      // Changed meanwhile (an update event follows) or deleted: nothing to fill.
      if (isStatus(e, 409) || isStatus(e, 404)) return;
      throw e;
    }
  }

  /** Removes `secrets[]` entries naming the deleted Secret from its account (live, uid checked). */
  private async removeReference(key: SecretKey): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      let sa: ApiObject;
      try {
        sa = await this.accountsClient.get(key.namespace, key.saName, this.ctx.signal);
      } catch (e) {
        if (isStatus(e, 404)) return;
        throw e;
      }
      if (key.saUid !== '' && sa.metadata.uid !== key.saUid) return;
      const refs = Array.isArray(sa.secrets) ? (sa.secrets as { name?: string }[]) : [];
      const kept = refs.filter((r) => r?.name !== key.name);
      if (kept.length === refs.length) return;
      const updated = structuredClone(sa);
      updated.secrets = kept;
      try {
        await this.accountsClient.update(updated, this.ctx.signal);
        return;
      } catch (e) {
        if (isStatus(e, 404)) return;
        if (!isStatus(e, 409)) throw e;
      }
    }
  }
}

function accountKey(o: ApiObject): AccountKey {
  return { namespace: o.metadata.namespace ?? '', name: o.metadata.name ?? '', uid: o.metadata.uid ?? '' };
}

/** Thrown when the controller's key or CA file cannot be read; names the file, never its content. */
export class TokenControllerConfigError extends Error {
  override readonly name = 'TokenControllerConfigError';
}

async function readConfigFile(member: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new TokenControllerConfigError(`SAController.${member}: cannot read ${file} (${code})`);
  }
}

/**
 * `serviceaccount-token-controller` (alias `serviceaccount-token`). As in kube it runs with the
 * controller manager's own credentials (service-account credentials depend on the tokens it
 * writes); `tokens-controller` is kube's client name for it. It does not start without
 * `SAController.ServiceAccountKeyFile`.
 */
export const serviceAccountTokenController: ControllerDescriptor = {
  name: 'serviceaccount-token-controller',
  aliases: ['serviceaccount-token'],
  serviceAccount: 'tokens-controller',
  managerCredentials: true,
  enabledByDefault: true,
  configMember: 'SAController',
  async run(ctx) {
    const keyFile = configString(ctx.config, 'ServiceAccountKeyFile');
    if (keyFile === '') {
      ctx.logger.warn('serviceaccount-token: not started, SAController.ServiceAccountKeyFile is not set');
      return;
    }
    const keyPem = await readConfigFile('ServiceAccountKeyFile', keyFile);
    let key: ReturnType<typeof parseSigningKey>;
    try {
      key = parseSigningKey(keyPem);
    } catch (e) {
      throw new TokenControllerConfigError(`SAController.ServiceAccountKeyFile: ${keyFile}: ${(e as Error).message}`);
    }
    const caFile = configString(ctx.config, 'RootCAFile');
    const rootCA = caFile === '' ? Buffer.alloc(0) : Buffer.from(await readConfigFile('RootCAFile', caFile), 'utf8');
    const signer = new ServiceAccountTokenSigner({
      issuer: ctx.domain.legacyServiceAccountIssuer,
      key,
      claimName: ctx.domain.serviceAccountClaim,
      clock: ctx.clock,
    });
    const accounts = ctx.informers.lookup('', 'serviceaccounts');
    const secretsInformer = ctx.informers.lookup('', 'secrets');
    const secrets = ctx.client.resource('', 'v1', 'secrets');
    const accountsClient = ctx.client.resource('', 'v1', 'serviceaccounts');
    if (!accounts || !secretsInformer || !secrets || !accountsClient) {
      ctx.logger.warn('serviceaccount-token: not started, secrets or service accounts are not served');
      return;
    }
    const workers = Math.max(1, configNumber(ctx.config, 'ConcurrentSATokenSyncs', DEFAULT_CONCURRENT_SA_TOKEN_SYNCS));
    await new TokensController(ctx, signer, rootCA, accounts, secretsInformer, secrets, accountsClient).run(workers);
  },
};
