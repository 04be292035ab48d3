export * from './sandbox-messaging/sandbox-messaging.server';
