export * from './html';
export * from './page-language';
export * from './page-shell';
export * from './page-style';
