/** The agent's version, sent with its stats (the product's version). */
export const AGENT_VERSION = '0.3.0';
