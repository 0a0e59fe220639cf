// src/api.ts
import { createPetstoreClient } from 'petstore-contract-toolkit/client';

// The one place the API's address is written: the page's origin, which vitest's jsdom has too
// (http://localhost:3000). Tests and the page's mock read it from here, so they cannot disagree.
export const baseUrl = `${location.origin}/v1`;
export const api = createPetstoreClient({ baseUrl, apiKey: 'petstore-dev-key' });
