// s3rver in its own process, for test/storage/s3rver.ts: started with --openssl-legacy-provider
// because s3rver makes its ListObjectsV2 continuation tokens with DES, which Node 20's OpenSSL 3
// refuses otherwise (a second page of any listing was a 500). Prints {"port"} once listening; exits
// on SIGTERM or when the test process that started it goes away (its stdin closes).
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
const addr = await server.run();
process.stdout.write(`${JSON.stringify({ port: addr.port })}\n`);
const stop = () => server.close().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
