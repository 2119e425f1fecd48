/**
 * `Warning` response headers (RFC 7234 §5.5) as kube-apiserver writes them: code 299, agent
 * `-`, the text quoted with only `"` and `\` escaped; texts with control characters are
 * dropped; repeated texts are sent once; past 4096 characters in total every text is cut to
 * 256 characters. Pure, one recorder per request.
 */

const CONTROL = /[\p{Cc}]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const AGENT_INVALID = /["\\\s\p{Cc}]/u;

/**
 * The header value for one warning: `299 - "unknown field \"spec.x\""`, or `undefined` when
 * kube refuses the text (control characters, invalid UTF-8) or the agent (spaces, quotes,
 * backslashes, control characters).
 */
export function warningHeaderValue(text: string, agent = '-'): string | undefined {
  if (agent !== '-' && (agent === '' || AGENT_INVALID.test(agent) || LONE_SURROGATE.test(agent))) return undefined;
  if (CONTROL.test(text) || LONE_SURROGATE.test(text)) return undefined;
  return `299 ${agent || '-'} "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

const TRUNCATE_AT_TOTAL = 4 * 1024;
const TRUNCATE_ITEM = 256;

const runeLength = (s: string): number => Array.from(s).length;
const truncate = (s: string): string => {
  const runes = Array.from(s);
  return runes.length > TRUNCATE_ITEM ? runes.slice(0, TRUNCATE_ITEM).join('') : s;
};

/**
 * Collects the warnings of one request with kube's recorder rules (dedupe, size budget,
 * truncation) and yields the `Warning` header values to send, in order.
 */
export class WarningRecorder {
  private readonly recorded = new Set<string>();
  private readonly ordered: string[] = [];
  private headers: string[] = [];
  private written = 0;
  private truncating = false;

  /** Records `text`; empty and repeated texts are ignored. */
  add(text: string): void {
    if (text === '') return;
    if (this.written >= TRUNCATE_AT_TOTAL && this.truncating) return;
    if (this.recorded.has(text)) return;
    this.recorded.add(text);
    this.ordered.push(text);
    const shown = this.truncating ? truncate(text) : text;
    const header = warningHeaderValue(shown);
    if (header === undefined) return;
    const length = runeLength(shown);
    if (this.written + length <= TRUNCATE_AT_TOTAL || this.truncating) {
      this.written += length;
      this.headers.push(header);
      return;
    }
    // Over budget: start again with every text cut short.
    this.truncating = true;
    this.written = 0;
    this.headers = [];
    for (const t of this.ordered) {
      const cut = truncate(t);
      const h = warningHeaderValue(cut);
      if (h === undefined) continue;
      this.written += runeLength(cut);
      this.headers.push(h);
    }
  }

  /** The `Warning` header values, one per warning. */
  headerValues(): readonly string[] {
    return this.headers;
  }
}
