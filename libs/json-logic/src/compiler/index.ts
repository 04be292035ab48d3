export * from './operators';
export * from './compile';
export * from './validate';
