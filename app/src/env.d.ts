/** Stylesheets are imported for esbuild, which bundles them into the page's one CSS file. */
declare module '*.css';
