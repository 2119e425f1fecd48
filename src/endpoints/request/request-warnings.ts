import type { WarningSink } from '../../apis/request/request-context.js';
import { WarningRecorder } from '../../encoding/index.js';

/**
 * The warnings of one request, from any layer (decoding, admission, deprecation, ...), written as
 * `Warning` headers on its response. The recorder is created on the first warning: most requests
 * have none.
 */
export class RequestWarnings implements WarningSink {
  private recorder: WarningRecorder | undefined;

  add(text: string): void {
    if (this.recorder === undefined) this.recorder = new WarningRecorder();
    this.recorder.add(text);
  }

  /** The `Warning` header values, one per distinct warning (empty when none). */
  headerValues(): readonly string[] {
    return this.recorder?.headerValues() ?? [];
  }
}
