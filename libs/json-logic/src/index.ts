export * from './compiler';
export * from './sql';
