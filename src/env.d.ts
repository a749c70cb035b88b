/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Resolved once per request by `currentUser` (src/server/guards.ts). */
    sessionUser?: import('../functions/auth/session.ts').SessionUser | undefined;
  }
}
