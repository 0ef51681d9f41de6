export * from './common.ts';
export * from './generators.ts';
export * from './manifests.ts';
export * from './wire.ts';
