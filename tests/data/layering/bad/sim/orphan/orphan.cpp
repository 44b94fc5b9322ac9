// no library declared here
