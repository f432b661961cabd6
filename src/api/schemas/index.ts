export * from './ai-pages.js';
export * from './brands.js';
export * from './citations.js';
export * from './content-ideas.js';
export * from './crawler.js';
