// Bounds the agent keeps to. The same values as the server's contract
// (packages/shared/src/devices/devices.contract.ts); a test checks they agree. The agent is built on its own,
// so it does not import the contract.

/** stdout and stderr are cut to this many characters before a result is reported. */
export const MAX_JOB_OUTPUT = 8192;
/** The longest command text the server accepts. */
export const MAX_JOB_COMMAND_LENGTH = 1000;
/** The longest wait the server allows for a long poll, in seconds. */
export const MAX_JOB_WAIT_SECONDS = 60;
/** The commands the agent knows (decisions §7). Anything else is a shell command, run only where allowed. */
export const VOCABULARY = ['reboot', 'restart-agent', 'collect-logs', 'ping', 'notify'] as const;
/** A host name or address for ping: letters, digits, dots, colons and hyphens only (never an option). */
export const PING_HOST = /^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$/;
