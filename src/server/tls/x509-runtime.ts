// Why this module exists: @peculiar/x509 resolves its algorithm providers through tsyringe, which throws
// "tsyringe requires a reflect polyfill" unless `reflect-metadata` has been evaluated first. Every file
// in this folder imports the library through here so the polyfill always comes first.
import 'reflect-metadata';

export * as x509 from '@peculiar/x509';
