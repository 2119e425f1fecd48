// @peculiar/x509 resolves its algorithm providers through tsyringe, which throws unless
// `reflect-metadata` was evaluated first: this folder imports the library only through here.
import 'reflect-metadata';

export * as x509 from '@peculiar/x509';
