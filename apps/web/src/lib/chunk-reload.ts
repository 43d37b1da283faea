// Spec §8: when a script chunk fails to load (usually a new deployment replaced it), reload the page once
// to fetch the new build, but at most once per 60 seconds so a real outage does not reload forever.

export const CHUNK_RELOAD_KEY = 'careplane.chunk-reload-at';
export const CHUNK_RELOAD_GUARD_MS = 60_000;

/** Whether a reload is allowed now; records the attempt when it is. */
export function claimChunkReload(now = Date.now()): boolean {
  let last = Number.NaN;
  try {
    last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY));
  } catch {
    return false;
  }
  if (Number.isFinite(last) && last > 0 && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  try {
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    return false;
  }
  return true;
}

/** Wraps a dynamic import: on failure the page reloads (guarded), else the error reaches the error page. */
export function importWithReload<T>(load: () => Promise<T>, reload = () => window.location.reload()) {
  return async (): Promise<T> => {
    try {
      return await load();
    } catch (error) {
      if (claimChunkReload()) {
        reload();
        // The page is going away: keep the route pending instead of flashing the error page.
        return new Promise<T>(() => undefined);
      }
      throw error;
    }
  };
}
