// mjscan pages: the Idempotency-Key of a request that changes something,
// made once per action and sent again on every retry of it, so that the
// service records the action once however often the network drops it.
"use strict";

// eslint-disable-next-line no-unused-vars
function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
