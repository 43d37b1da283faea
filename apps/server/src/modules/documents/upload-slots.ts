// How many uploads one caller may send at once in this process: each holds a database connection's worth of
// work and a request body in flight, so one caller cannot take the server's whole capacity (decision 037).
import { serviceTexts, tooManyRequests } from '@/lib/errors.js';

/** Seconds a refused caller waits before trying again. */
export const UPLOAD_RETRY_AFTER_SECONDS = 5;

export interface UploadSlots {
  /** Takes one of the caller's slots, or refuses (429); answers the function that gives it back (once). */
  take(caller: string): () => void;
  /** Slots in use, for everyone (a gauge for the metrics). */
  inUse(): number;
}

export function createUploadSlots(perCaller: number): UploadSlots {
  const taken = new Map<string, number>();
  let total = 0;
  return {
    take(caller) {
      const held = taken.get(caller) ?? 0;
      if (held >= perCaller) {
        throw tooManyRequests(serviceTexts.uploadsAtOnce(perCaller), UPLOAD_RETRY_AFTER_SECONDS);
      }
      taken.set(caller, held + 1);
      total += 1;
      let given = false;
      return () => {
        if (given) return;
        given = true;
        total -= 1;
        const left = (taken.get(caller) ?? 1) - 1;
        if (left > 0) taken.set(caller, left);
        else taken.delete(caller);
      };
    },
    inUse: () => total,
  };
}
