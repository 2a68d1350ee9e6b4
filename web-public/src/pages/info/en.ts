import type { InfoTexts } from './types.js';

const en: InfoTexts = {
  labels: {
    contents: 'On this page',
    updated: 'Last updated: {{date}}',
    name: 'Name',
    designation: 'Designation',
    email: 'Email',
    postalAddress: 'Postal address',
    responseTime: 'Response time',
    responseTimeValue:
      'We acknowledge a complaint within {{hours}} hours and resolve it within {{days}} days of receiving it.',
  },
  pages: {
    about: {
      title: 'About us',
      description:
        'Who runs Offers Marketplace, how we earn money from store commissions, and why shoppers’ votes tell you which coupon codes really work.',
      intro: [
        '{{brand}} brings coupon codes, cashback and offers from shops across India together in one place, in English, Hindi and Telugu, with every price in rupees.',
      ],
      sections: [
        {
          id: 'who-we-are',
          heading: 'Who we are',
          blocks: [
            'We are a small team in Hyderabad. We started {{brand}} because hunting for a code that works, across many sites and many tabs, wastes shoppers’ time and money.',
            'Shops publish their offers and their own store pages with us. Our team checks every offer before it goes live, and shoppers tell each other which codes really work.',
          ],
        },
        {
          id: 'how-we-earn',
          heading: 'How we earn money',
          blocks: [
            'Using {{brand}} is free for shoppers. Stores pay us a commission when you buy something after opening their shop from our site. We pass part of that commission back to you as cashback.',
            'Some stores also pay to have their offers featured in prominent places, such as the banners on the home page. Paying never changes what we show about an offer: the discount, the expiry date and the shoppers’ votes are shown the same way for every store.',
            'We do not sell your personal data. Our [privacy policy](/privacy) explains what we keep and why.',
          ],
        },
        {
          id: 'verified-by-shoppers',
          heading: 'Why shoppers verify the codes',
          blocks: [
            'A code that worked yesterday can stop working today: a store may end an offer early or keep it for new customers. So after you use a code we ask one question: “Did this code work?”',
            {
              list: [
                'Each person can answer once a day for each code; a later answer that day replaces the earlier one.',
                'Once a code has {{minVotes}} answers, its card shows the share of shoppers it worked for.',
                'The “Recently verified” tab lists the codes that worked for someone most recently.',
                'Offers leave the site on their own when their expiry date passes.',
              ],
            },
            'Your answer takes one tap and helps the next shopper skip a code that does not work.',
          ],
        },
        {
          id: 'what-we-check',
          heading: 'What our team checks',
          blocks: [
            'Before shoppers see an offer, our team reviews it: the code, the discount, the expiry date and the link to the store. Offers that mislead are refused, and stores that keep misleading shoppers are removed from the site.',
          ],
        },
        {
          id: 'talk-to-us',
          heading: 'Talk to us',
          blocks: [
            'Questions, ideas or a problem with an offer? Write to us through the [contact page](/contact) or at {{supportEmail}}.',
            '{{legalName}}, {{registeredOffice}}.',
          ],
        },
      ],
    },

    terms: {
      title: 'Terms of service',
      description:
        'The rules for using Offers Marketplace: accounts for adults 18+, how coupons, cashback and referral rewards work, what is not allowed, and Indian law.',
      dated: true,
      intro: [
        'These terms apply when you use {{brand}}, run by {{legalName}} (“we”, “us”). By using the site or creating an account you accept them. Please read them together with our [privacy policy](/privacy).',
      ],
      sections: [
        {
          id: 'accounts',
          heading: 'Who can have an account',
          blocks: [
            'You must be {{adultAge}} years or older to register and use an account. Anyone may browse offers and use codes without an account.',
            {
              list: [
                'Give your true name, email address, mobile number and address when you register, and keep them up to date.',
                'One account per person. Keep your password to yourself; you are responsible for what is done with your account.',
                'Tell us at once at {{supportEmail}} if you think someone else has used your account.',
              ],
            },
          ],
        },
        {
          id: 'coupons',
          heading: 'Coupons and offers',
          blocks: [
            {
              list: [
                'Offers are published by the stores and checked by our team before they go live. Each offer is valid until its expiry date and under the store’s own conditions, which may limit it to some products, to first orders or to a minimum order value.',
                'The store, not us, sells you the goods. Prices, delivery, returns, warranties and refunds are between you and the store.',
                'We work to keep every code correct, but a store can change or end an offer at any time, so we cannot promise that every code will work.',
              ],
            },
          ],
        },
        {
          id: 'cashback',
          heading: 'Cashback',
          blocks: [
            {
              list: [
                'Cashback is a share of the commission a store pays us for your purchase. We pay it to you in Indian rupees (₹).',
                'It applies only to purchases the store reports to us as yours. Sign in before you open the store from our site, and finish your purchase in that visit.',
                'A purchase first shows as Pending in My earnings. Cashback is confirmed only after the store confirms the purchase, usually once its return or cancellation period is over. Until then it is not yet yours to be paid.',
                'If the order is cancelled or returned, or the store does not confirm it, the cashback is cancelled.',
                'Confirmed cashback is yours to withdraw in rupees: from My earnings, ask for a payout to your UPI ID or bank account.',
              ],
            },
          ],
        },
        {
          id: 'referrals',
          heading: 'Referral rewards',
          blocks: [
            {
              list: [
                'You can invite friends with your referral link or code from Refer friends in your account.',
                'You earn a referral bonus when a friend who registered with your code makes a first purchase that the store confirms and that reaches the minimum amount we set. The bonus is paid in rupees, like cashback.',
                'Referring yourself, registering people without their consent or paying people to register earns no bonus.',
              ],
            },
          ],
        },
        {
          id: 'not-allowed',
          heading: 'What is not allowed',
          blocks: [
            {
              list: [
                'Creating fake or several accounts, or registering with someone else’s details.',
                'Answering “Did this code work?” falsely, or answering many times through scripts or many devices, to push a code up or down.',
                'Using bots, scrapers or other automated tools to reveal codes, copy the site or load it heavily.',
                'Placing fake orders, or cancelling orders after claiming cashback or a referral bonus.',
                'Trying to get into other people’s accounts or our systems, or to get round the site’s limits.',
                'Anything unlawful, or misleading or harmful to other shoppers or to stores.',
              ],
            },
            'We may refuse or cancel cashback and bonuses obtained this way, and suspend or close the accounts involved. If you think we made a mistake, write to us and we will look at it again.',
          ],
        },
        {
          id: 'our-content',
          heading: 'Our content',
          blocks: [
            'The site’s design, texts and software belong to us or to those who licensed them to us. Store names, logos and offers belong to the stores. You may use the site for your own shopping, not to copy it or to build another list of offers from it.',
          ],
        },
        {
          id: 'liability',
          heading: 'Liability',
          blocks: [
            'The site is provided as it is. We are not responsible for the goods or services stores sell, for a store refusing to honour a code, or for events beyond our reasonable control.',
            'Nothing in these terms limits a liability that Indian law does not allow to be limited. Otherwise our total liability to you for any claim is limited to the confirmed cashback and bonuses we owe you.',
          ],
        },
        {
          id: 'closing',
          heading: 'Closing an account',
          blocks: [
            'You may close your account at any time by writing to us; we first pay any confirmed cashback we owe you. We may suspend or close an account that breaks these terms.',
          ],
        },
        {
          id: 'changes',
          heading: 'Changes to these terms',
          blocks: [
            'We may change these terms. The date at the top of this page shows the latest version, and we tell registered users of important changes by email before they apply.',
          ],
        },
        {
          id: 'law',
          heading: 'Governing law and disputes',
          blocks: [
            'These terms are governed by the laws of India. The courts at {{courts}} decide any dispute about them, without taking away your rights as a consumer under the Consumer Protection Act, 2019.',
            'Please write to us first: most problems are solved quickly. For complaints, our Grievance Officer’s details are in the [privacy policy](/privacy).',
          ],
        },
      ],
    },

    privacy: {
      title: 'Privacy policy',
      description:
        'What personal data Offers Marketplace collects, why, which cookies it uses, how long it keeps data, your rights, and how to reach our Grievance Officer.',
      dated: true,
      intro: [
        'This policy explains what personal data {{legalName}} collects when you use {{brand}}, why we use it, how long we keep it, and your rights under India’s Digital Personal Data Protection Act, 2023 (the DPDP Act) and the Information Technology Act, 2000 and its rules.',
      ],
      sections: [
        {
          id: 'what-we-collect',
          heading: 'What we collect',
          blocks: [
            {
              list: [
                'Your account: name, email address, mobile number, postal address, your referral code and the code you registered with. Your password is stored only as a one-way hash that no one can read.',
                'Your use of offers: the coupons you reveal, your answers to “Did this code work?”, the stores you follow, and the purchases stores report to us for cashback (store, amount, date and status).',
                'What you send us: messages through the contact form, and your email address if you subscribe to the newsletter.',
                'Technical data: your IP address, your browser and the time of each request, which our servers record to keep the site secure and working.',
              ],
            },
            'We do not collect payment card details: you pay the store, not us.',
          ],
        },
        {
          id: 'why-we-use-it',
          heading: 'Why we use it',
          blocks: [
            {
              list: [
                'To run your account and keep you signed in.',
                'To credit and pay your cashback and referral bonuses.',
                'To show which codes work: answers are counted, never shown with your name.',
                'To send the mails you ask for: new offers of stores you follow (at most one mail a day for each store), the newsletter once you confirm it, and password resets.',
                'To answer your messages.',
                'To prevent fraud and abuse, for example by limiting sign-in attempts and repeated votes.',
                'To meet our legal duties, such as tax records and lawful requests from authorities.',
              ],
            },
            'We use your data on the basis of the consent you give when you register, subscribe or write to us, and for the legitimate uses the DPDP Act allows, such as complying with the law. You can withdraw your consent at any time; this does not affect what was done before.',
          ],
        },
        {
          id: 'sharing',
          heading: 'Who we share it with',
          blocks: [
            {
              list: [
                'Stores: only what is needed to match a purchase to your account for cashback, such as your referral code. We never give stores your contact details.',
                'Service providers that host our servers and send our emails, under contracts that require them to protect your data and use it only for us.',
                'Authorities, when Indian law requires it.',
              ],
            },
            'We do not sell your personal data, and we do not share it for advertising.',
          ],
        },
        {
          id: 'cookies',
          heading: 'Cookies',
          blocks: [
            'We use only the cookies the site needs to work; none for advertising or for following you across other sites.',
            {
              list: [
                '“session”: keeps you signed in. It ends when you sign out or your session expires.',
                '“XSRF-TOKEN”: protects your account’s forms from requests forged by other sites. It lasts as long as your session.',
                '“language”: remembers the language you chose, for one year.',
                '“visitor”: lets us count one answer a day to “Did this code work?” when you are not signed in, for one year.',
              ],
            },
            'If you block cookies in your browser you will not stay signed in, but you can still browse offers and use codes.',
          ],
        },
        {
          id: 'retention',
          heading: 'How long we keep it',
          blocks: [
            {
              list: [
                'Account details: while your account is open, and deleted within 30 days after you close it, apart from what the law requires us to keep.',
                'Cashback, bonus and payment records: eight years, as Indian tax and accounting laws require.',
                'Records of the alert mails we sent about followed stores: {{alertKeepDays}} days.',
                'Messages you send us: up to two years after we answer them.',
                'Clicks on offers made without signing in: counted per day, the clicks themselves deleted after {{clickKeepDays}} days.',
                'Server logs: one year, as India’s data protection rules ask of security logs.',
              ],
            },
          ],
        },
        {
          id: 'security',
          heading: 'How we protect it',
          blocks: [
            'Pages and data travel over encrypted connections (HTTPS); passwords are stored only as slow, salted hashes; only the staff who need personal data for their work can see it; and repeated failed sign-ins are blocked for a while. If a breach affects your data, we will tell you and the Data Protection Board of India, as the DPDP Act requires.',
          ],
        },
        {
          id: 'your-rights',
          heading: 'Your rights',
          blocks: [
            {
              list: [
                'Access: see what we hold about you and who we shared it with under [Your data](/account/data), and download all of it.',
                'Correction: change your details in My account, or ask us to correct or complete them.',
                'Erasure: delete your account from [Account security](/account/security); we mail you a link to confirm it.',
                'Withdraw consent: turn it off under [Your consents](/account/privacy) in one click, unsubscribe with the link in any mail, or close your account.',
                'Grievance redressal: complain to our Grievance Officer (below).',
                'Nomination: name a person who may use these rights for you in case of death or incapacity.',
              ],
            },
            'To use a right, write to the Grievance Officer from the email address of your account, so we know the request is yours.',
          ],
        },
        {
          id: 'children',
          heading: 'Children',
          blocks: [
            'Our service is not meant for children under {{childAge}}, and we do not knowingly collect their personal data. Accounts are only for people aged {{adultAge}} or over, so we do not knowingly process the data of anyone under {{adultAge}}, who is a child under the DPDP Act. If we learn that we hold such data, we delete it. A parent or guardian can ask us to do so through the Grievance Officer.',
          ],
        },
        {
          id: 'changes',
          heading: 'Changes to this policy',
          blocks: [
            'When we change this policy, the date at the top of this page changes; we tell registered users of important changes by email before they apply.',
          ],
        },
        {
          id: 'grievance-officer',
          heading: 'Grievance Officer',
          blocks: [
            'For any complaint about your personal data or about content on the site, write to our Grievance Officer, appointed under the Information Technology (Intermediary Guidelines and Digital Media Ethics Code) Rules, 2021 and the DPDP Act, 2023:',
            { grievanceOfficer: true },
            'You can also file it with our [grievance form](/grievance), signed in or not: you get a reference by mail at once, and the Grievance Officer’s answer by mail within {{grievanceDays}} days at the latest.',
            'If you are not satisfied with our answer, you may complain to the Data Protection Board of India.',
          ],
        },
      ],
    },

    careers: {
      title: 'Careers',
      description:
        'Work with Offers Marketplace in Hyderabad or remotely in India: open roles in engineering, partnerships and Hindi content, and how to apply by email.',
      intro: [
        'We are a small team helping Indian shoppers save money, in the languages they speak at home. We work from Hyderabad, and some roles are open to people anywhere in India.',
      ],
      sections: [
        {
          id: 'how-we-work',
          heading: 'How we work',
          blocks: [
            {
              list: [
                'Shoppers first: we would rather show fewer offers than one code that does not work.',
                'Small, careful changes, tested against the real thing before they reach shoppers.',
                'English, Hindi and Telugu on every screen. Speaking Hindi or Telugu is a plus for every role.',
              ],
            },
          ],
        },
        {
          id: 'open-roles',
          heading: 'Open roles',
          blocks: [],
          subsections: [
            {
              id: 'backend-engineer',
              heading: 'Backend engineer (TypeScript, PostgreSQL)',
              blocks: [
                'Hyderabad or remote in India · Full time',
                {
                  list: [
                    'Build the API behind coupons, cashback and store pages.',
                    'Keep lists fast and correct as shops and shoppers grow.',
                    'Three or more years with Node.js and a relational database.',
                  ],
                },
              ],
            },
            {
              id: 'frontend-engineer',
              heading: 'Frontend engineer (React)',
              blocks: [
                'Hyderabad or remote in India · Full time',
                {
                  list: [
                    'Make pages that load fast on budget phones and slow networks.',
                    'Care about accessibility and about text in three scripts.',
                    'Experience with React and server rendering.',
                  ],
                },
              ],
            },
            {
              id: 'partner-manager',
              heading: 'Partner manager (Telugu and English)',
              blocks: [
                'Hyderabad · Full time',
                {
                  list: [
                    'Bring shops from Telangana and Andhra Pradesh to the site.',
                    'Help them publish clear offers and good store pages.',
                    'Fluent Telugu and English; Hindi is a plus.',
                  ],
                },
              ],
            },
            {
              id: 'hindi-editor',
              heading: 'Hindi content editor',
              blocks: [
                'Remote in India · Part time',
                {
                  list: [
                    'Write and review the site’s Hindi texts and help pages.',
                    'Make sure offers read naturally to Hindi-speaking shoppers.',
                  ],
                },
              ],
            },
          ],
        },
        {
          id: 'how-to-apply',
          heading: 'How to apply',
          blocks: [
            'Email {{careersEmail}} with the role in the subject line, your CV as a PDF, and a few lines on why the role interests you. You may write in English, Hindi or Telugu. We reply to every application within two weeks.',
            'We never ask for money at any stage of hiring. Treat any such request in our name as a fraud.',
          ],
        },
        {
          id: 'equal-opportunity',
          heading: 'Equal opportunity',
          blocks: [
            'We welcome applications from everyone, whatever their gender, caste, religion, disability or background.',
          ],
        },
      ],
    },

    faq: {
      title: 'Frequently asked questions',
      description:
        'How to use a coupon code, why a code may fail, what cashback is and when it is confirmed, how payouts and store alerts work, and how to reach us.',
      intro: ['Answers to what shoppers ask us most. Cannot find yours? [Write to us](/contact).'],
      sections: [
        {
          id: 'coupons',
          heading: 'Coupons',
          blocks: [],
          subsections: [
            {
              id: 'use-a-code',
              heading: 'How do I use a coupon code?',
              blocks: [
                {
                  steps: [
                    'Find an offer: search, pick a category, or open a store’s page.',
                    'Press “Get code”. The code appears with a Copy button. Copy it, then press the button that takes you to the store, which opens in a new tab.',
                    'Add what you want to your cart there and paste the code in the coupon or promo code box at checkout.',
                    'Check that the discount shows before you pay.',
                  ],
                },
              ],
            },
            {
              id: 'code-failed',
              heading: 'Why did a code not work?',
              blocks: [
                'The most common reasons:',
                {
                  list: [
                    'The store ended the offer early, or it has expired.',
                    'The offer has conditions: a minimum order value, some products only, first orders only, or some payment methods only. The offer’s details say which.',
                    'It can be used only once for each customer, and you have used it before.',
                    'A typing mistake: use the Copy button instead of typing the code.',
                    'Your cart is in the store’s app or another region where the offer does not apply.',
                  ],
                },
                'Then please answer “No” under “Did this code work?” to warn the next shopper, and try another code of the same store.',
              ],
            },
            {
              id: 'account-needed',
              heading: 'Do I need an account to use codes?',
              blocks: [
                'No. Anyone can get and use codes. A free account adds cashback, referral rewards and mails about stores you follow.',
              ],
            },
            {
              id: 'verified',
              heading: 'How do I know a code works?',
              blocks: [
                'Our team checks every offer before it goes live, and shoppers tell us whether each code worked for them. Once a code has {{minVotes}} answers, its card shows the share of shoppers it worked for. The “Recently verified” tab lists the codes that worked most recently.',
              ],
            },
          ],
        },
        {
          id: 'cashback',
          heading: 'Cashback and payouts',
          blocks: [],
          subsections: [
            {
              id: 'what-is-cashback',
              heading: 'What is cashback?',
              blocks: [
                'When you buy from a store through our site, the store pays us a commission. We give part of it back to you, in rupees, on top of any discount the coupon gave you.',
              ],
            },
            {
              id: 'get-cashback',
              heading: 'How do I make sure I get cashback?',
              blocks: [
                {
                  list: [
                    'Sign in before you press “Get code”.',
                    'Open the store from our site and finish your purchase in that visit.',
                    'Do not open another coupon or cashback site or browser extension before you pay: the store may then credit the purchase to them.',
                  ],
                },
              ],
            },
            {
              id: 'when-confirmed',
              heading: 'When is my cashback confirmed?',
              blocks: [
                'Your purchase appears in My earnings as Pending once the store reports it. The store confirms it after its return or cancellation period, which can take several weeks; the cashback then shows as Confirmed. If you cancel or return the order, it shows as Cancelled.',
              ],
            },
            {
              id: 'payouts',
              heading: 'How are payouts made?',
              blocks: [
                'We pay confirmed cashback and referral bonuses in Indian rupees. My earnings shows your available balance; once it reaches the minimum payout shown there, ask for a payout to your UPI ID or bank account. We mail you when it is paid, with the bank’s reference for the transfer. If a transfer fails, we mail you why, and the amount is back in your balance.',
                'We will never ask for your OTP, PIN or password. Anyone who does is not us.',
              ],
            },
            {
              id: 'referrals',
              heading: 'How do referral rewards work?',
              blocks: [
                'Share your referral link from Refer friends in your account. When a friend registers with it and the store confirms their first purchase of at least the minimum amount, you get a bonus in rupees.',
              ],
            },
          ],
        },
        {
          id: 'account',
          heading: 'Your account and stores',
          blocks: [],
          subsections: [
            {
              id: 'follow-a-store',
              heading: 'How do I follow a store?',
              blocks: [
                'Sign in, open the store’s page and press Follow. We email you when it has a new offer: at most one mail a day for each store, and mails due late at night wait for the morning. You can follow up to {{maxFollows}} stores.',
                'To stop, press Unfollow on the store’s page or in Followed stores in your account, or use the link at the bottom of any alert mail.',
              ],
            },
            {
              id: 'languages',
              heading: 'Which languages can I use?',
              blocks: [
                'The whole site is in English, Hindi and Telugu. Choose yours in the language menu at the top of any page; the site remembers it. Offers are written by the stores, so some offer titles stay in the store’s language.',
              ],
            },
            {
              id: 'change-details',
              heading: 'How do I change my details or my password?',
              blocks: [
                'Your name, mobile number and address are in My account. Your password and the devices you are signed in on are under Password and sessions. Forgot your password? Use the link on the [sign-in page](/sign-in).',
              ],
            },
          ],
        },
        {
          id: 'contact',
          heading: 'Contact',
          blocks: [],
          subsections: [
            {
              id: 'reach-us',
              heading: 'How can I contact you?',
              blocks: [
                'Use the [contact page](/contact) or write to {{supportEmail}}; we answer within two working days. For a complaint about your personal data or about content on the site, write to our Grievance Officer at {{grievanceEmail}} (see the [privacy policy](/privacy)).',
              ],
            },
          ],
        },
      ],
    },
  },
};

export default en;
