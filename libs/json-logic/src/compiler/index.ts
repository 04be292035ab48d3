export * from './compile';
export * from './operators';
export * from './validate';
