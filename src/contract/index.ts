export * from './contract.js';
export * from './lossless-json.js';
export * from './types.js';
