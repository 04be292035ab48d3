import { minutesHours, PassMessages } from './pass-messages';

/** The English catalog of pass's pages: every key of PassMessages. */
export const en: PassMessages = {
  brand: 'Pass',
  theApplication: 'the application',
  wait: (s) => {
    const w = minutesHours(s);
    return 'minutes' in w ? `${w.minutes} ${w.minutes === 1 ? 'minute' : 'minutes'}` : `${w.hours} hours`;
  },
  technicalDetails: 'Technical details',
  backTo: (app) => `Back to ${app}`,
  approvalSms: (r, said, link) =>
    `${r ? `${r.app} (tenant ${r.tenant})` : 'An application'} asks you to approve a request.` +
    `${said ? ` Their message: "${said}".` : ''} Review it: ${link}`,
  mail: {
    subject: (code) => `Your sign-in code: ${code}`,
    text: (app, code) =>
      `Your code to sign in to ${app} is ${code}.\nIt is valid for 10 minutes. If you did not ask for it, ignore this e-mail.\n`,
  },
  signIn: {
    title: 'Sign in',
    heading: (app) => `Sign in to ${app}`,
    intro: 'We will e-mail you a 6-digit code. No password needed.',
    email: 'E-mail',
    send: 'Send me a code',
    cancel: 'Cancel',
  },
  code: {
    title: 'Enter your code',
    heading: 'Check your e-mail',
    intro: (email) => `We sent a 6-digit code to ${email}. It expires in 10 minutes.`,
    label: 'Code',
    hint: 'The 6 digits of the e-mail.',
    verify: 'Sign in',
    resend: 'Send another code',
    otherEmail: 'Use another e-mail',
  },
  notices: {
    sessionTooOld: (app) => `Your session is too old for ${app}: sign in again.`,
    emailDomainNotAllowed: (app, domains) => `${app} accepts only e-mail addresses of: ${domains}. Use another e-mail.`,
    invalidEmail: 'Type a valid e-mail address, like name@example.com.',
    codeFormat: 'Type the 6 digits of the code, without spaces.',
    tooManyCodes: (wait) => `Too many codes were asked for. Try again in ${wait}.`,
    codeSent: 'We sent you a new code. Use the latest one.',
    invalidCode: (n) =>
      n === 1
        ? 'That code is not right. You have 1 attempt left.'
        : `That code is not right. You have ${n} attempts left.`,
    codeAttemptsUsed: 'That code was tried too many times. Ask for a new one.',
    codeExpired: 'The code expired or was already used. Ask for a new one.',
  },
  lockout: {
    title: 'Too many attempts',
    heading: 'Too many attempts',
    text: (wait) => `To keep your account safe, sign-in with this e-mail is locked. Try again in ${wait}.`,
    after: 'No codes are sent to this e-mail meanwhile.',
  },
  consent: {
    title: 'Share your data',
    heading: (app) => `${app} wants to access your data`,
    owner: (app, tenant) => `${app} is an application of ${tenant}.`,
    intro: (app) => `If you allow it, ${app} will receive:`,
    allow: 'Allow',
    deny: 'Deny',
    note: 'You can stop sharing whenever you want.',
  },
  stepUp: {
    title: 'More verification needed',
    heading: 'More verification needed',
    acrNotSatisfied: (app) => `${app} needs a verified identity. Verify your identity once, then sign in again.`,
  },
  expired: {
    title: 'This sign-in expired',
    heading: 'This sign-in expired',
    text: (app) => `Go back to ${app} and start again.`,
    textUnknown: 'Go back to the application and start again.',
  },
  authorizeError: {
    title: 'We could not start the sign-in',
    heading: 'We could not start the sign-in',
    text: 'The link that brought you here is not valid. Go back to the application and try again; if it happens again, tell whoever runs it.',
  },
  genericError: {
    title: 'Something went wrong',
    heading: 'Something went wrong',
    text: 'We could not finish this step. Go back to the application and try again.',
  },
  approval: {
    title: 'Approve the request',
    heading: 'Review the request',
    requester: (app, tenant) => `${app}, of ${tenant}, asks you to approve this request.`,
    unknownRequester: 'An application that no longer exists asks you to approve this request.',
    theirMessage: 'Their message',
    shares: 'If you approve, the application will receive:',
    details: 'What you approve',
    attachments: 'Attached documents',
    requested: 'Information they ask for',
    required: 'required',
    choose: 'Choose an option',
    yes: 'Yes',
    no: 'No',
    formErrors: 'Check the answers marked below.',
    approve: 'Approve',
    decline: 'Decline',
    approved: {
      title: 'Request approved',
      heading: 'You approved the request',
      text: (app) => `We told ${app}. You can close this page.`,
    },
    declined: {
      title: 'Request declined',
      heading: 'You declined the request',
      text: (app) => `We told ${app}. You can close this page.`,
    },
    decided: {
      title: 'Request already answered',
      heading: 'You already answered this request',
      approved: 'You approved it.',
      declined: 'You declined it.',
      text: 'There is nothing more to do: you can close this page.',
    },
    expired: {
      title: 'Request no longer available',
      heading: 'This request is no longer available',
      text: 'It expired or was already answered. If you still need it, ask the application to send it again.',
    },
    badLink: {
      title: 'Link not valid',
      heading: 'This link is not valid',
      text: 'Open the whole link of the message you received. If you copied it, check that nothing is missing.',
    },
    fieldErrors: {
      once: (l) => `${l}: answer only once.`,
      checkbox: (l) => `${l}: check the box or leave it unchecked.`,
      must_check: (l) => `${l}: you must check this box.`,
      required: (l) => `${l}: this is required.`,
      control: (l) => `${l}: it has characters that are not allowed.`,
      number: (l) => `${l}: type a number, like 1500.50.`,
      date: (l) => `${l}: type a real date (YYYY-MM-DD).`,
      email: (l) => `${l}: type a valid e-mail address.`,
      option: (l) => `${l}: choose one of the options.`,
      too_long: (l, max) => `${l}: type at most ${max} characters.`,
    },
  },
  scopes: {
    openid: 'an identifier that does not change',
    email: 'your e-mail, verified',
    phone: 'your phone number, verified',
    profile: 'your name, first and last names, gender, birthdate and nationality',
    identity:
      'your verified identity: names, birthdate, nationality, document number and type, issuing authority and risk flags',
    documents: 'your identity documents',
    'documents:images': 'the images of your documents',
    age: 'whether your age is verified, whether you are a minor, and your age range',
    address: 'your address',
    background: 'your trust level and background checks',
    biometric: 'your face enrollment and liveness results',
    'biometric:image': 'the image of your face',
    verification: 'the status, date and methods of your verification',
    contact: 'your verified e-mail and phone and how you prefer to be contacted',
    nationality: 'your nationality',
    'approval:read': 'the decisions you make on its approval requests',
    'validations:write': 'to record validations it made about you',
  },
  documentScope: (country, type) =>
    `your documents (${country === 'ALL' ? 'of any country' : country.toUpperCase()}, ${type === 'ALL' ? 'of any type' : type})`,
};
