// tsx turns source maps on for every module loaded after it, Next.js's thousands included: each start read and parsed
// their maps (0.7 s of CPU in a start of 3), and every Error.stack read was mapped. SOURCE_MAPS=1 keeps them for debugging.
if (process.env.SOURCE_MAPS !== '1') process.setSourceMapsEnabled(false);
