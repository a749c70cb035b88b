/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Resolved once per request by `currentSession` (src/server/guards.ts). */
    session?: import('../functions/auth/session.ts').SessionState;
  }
}
